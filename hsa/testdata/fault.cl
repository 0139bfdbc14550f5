// A kernel that stores far past its buffer: a device memory fault.
__kernel void wild(__global int *p) {
  p[__builtin_amdgcn_workitem_id_x() + (1 << 28)] = 1;
}
