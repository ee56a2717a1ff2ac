#pragma once
struct Matrix { int rows, cols; float* data; };
void scale_matrix(Matrix m, float s);
