#define TESTING
#include "train_gpt2.c"

int main(void) { return forward(1.0f) == 2.0f ? 0 : 1; }
