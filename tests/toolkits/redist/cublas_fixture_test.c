/* Links the fixture's libcublas_static.a (@cuda_fixture_cublas//:cublas_static): proves the redist
 * archive was downloaded through its file:// URL, checked against the manifest's sha256, extracted
 * under its strip_prefix into bin/ include/ lib/, and mapped onto the library targets. */
#include <stdio.h>

#include <cublas_fixture.h>

int main(void) {
  int got = cublas_fixture_answer();
  if (got != 42) {
    fprintf(stderr, "cublas_fixture_answer() = %d, want 42\n", got);
    return 1;
  }
  printf("cublas_fixture_answer() = 42\n");
  return 0;
}
