// The empty kernel: dispatch latency and throughput.
kernel void empty(void) {}
