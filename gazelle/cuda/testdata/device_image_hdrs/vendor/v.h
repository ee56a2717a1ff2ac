#pragma once
#define V 1
