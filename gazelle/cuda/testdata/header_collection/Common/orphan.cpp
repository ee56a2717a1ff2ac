// Includes no header of the directory: no rule knows who needs it.
int orphan_answer() { return 42; }
