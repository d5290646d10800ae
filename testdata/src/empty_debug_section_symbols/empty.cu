// No device code: ptxas writes an empty .debug_frame without a section symbol.
int main() { return 0; }
