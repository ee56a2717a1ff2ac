#pragma once
#define EXTRA_FAILURE 1
