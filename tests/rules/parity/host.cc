int parity_host() { return 1; }
