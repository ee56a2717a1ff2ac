#include "render_d3d.h"

bool render_check(ID3D11Device* device) { return device != nullptr; }
