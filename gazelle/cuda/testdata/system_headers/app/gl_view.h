#pragma once
#include <GL/glew.h>
#include <stdio.h>
