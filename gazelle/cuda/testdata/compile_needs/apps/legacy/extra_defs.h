#pragma once
#define EXTRA_FAILURE 2
