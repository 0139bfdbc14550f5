__kernel void add(__global float *a, __global const float *b, float c, int n) {
  int i = get_global_id(0);
  if (i < n) a[i] += b[i] * c;
}
__kernel void hello(__global int *o, __local int *l) {
  l[get_local_id(0)] = get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  printf("hi %d %f\n", l[0], 1.5f);
  o[get_global_id(0)] = l[(get_local_id(0)+1)%get_local_size(0)];
}
__global int table[4] = {1, 2, 3, 4};
__global int *__global tptr = table;
__kernel void indirect(__global int *o) {
  o[get_global_id(0)] = tptr[get_global_id(0) & 3];
}
