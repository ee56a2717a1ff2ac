#pragma once
__global__ void add_one(int* v);
