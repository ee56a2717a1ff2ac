#pragma once
// A helper for Windows programs only.
#include <d3d11.h>

bool render_check(ID3D11Device* device);
