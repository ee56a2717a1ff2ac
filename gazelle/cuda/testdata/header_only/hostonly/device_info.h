#pragma once
int device_count_or_zero();
