#include "render_d3d.h"

bool check_frame(ID3D11Device* device, ID3D11Texture2D* frame) { return device != nullptr && frame != nullptr; }
