#pragma once
struct Layout { int rows, cols; };
