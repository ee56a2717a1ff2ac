// Checks a rendered frame of the Direct3D samples: Windows only.
#pragma once
#include <d3d11.h>

bool check_frame(ID3D11Device* device, ID3D11Texture2D* frame);
