__global__ void child(int* out, int depth) { out[depth] = depth; }

// "a<<<b>>>" in a string, and in a comment: child<<<1, 1>>>(out, 0);
const char* text = "child<<<1, 1>>>";

__global__ void parent(int* out, int depth) {
  if (threadIdx.x == 0 && depth < 4) {
    child<<<1, 1>>>(out, depth);
  }
}

void launch_parent(int* out) { parent<<<1, 1>>>(out, 0); }
