#include <cusparse.h>
#include <stdio.h>

int main(void) {
  cusparseHandle_t h;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) {
    printf("no cuSPARSE\n");
    return 0;
  }
  cusparseDestroy(h);
  return 0;
}
