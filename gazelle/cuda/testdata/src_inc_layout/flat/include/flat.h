#pragma once
int flat_answer();
