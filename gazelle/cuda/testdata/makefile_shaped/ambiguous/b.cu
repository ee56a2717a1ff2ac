int table[4] = {4, 3, 2, 1};
