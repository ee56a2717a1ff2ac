#include <cusolverMg.h>

int main() {
  cusolverMgHandle_t h;
  return cusolverMgCreate(&h) == CUSOLVER_STATUS_SUCCESS ? 0 : 1;
}
