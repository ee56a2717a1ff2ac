#include "does/not/exist.h"
