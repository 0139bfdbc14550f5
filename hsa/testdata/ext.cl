// A kernel reading a variable the code object does not define.
extern __attribute__((visibility("default"))) __global int host_defined;

__kernel void readext(__global int *out) { out[0] = host_defined; }
