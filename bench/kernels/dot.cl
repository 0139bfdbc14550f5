// Integer dot product: each work-item sums a strided slice, the work-group
// reduces in LDS and one work-item adds the group's sum to *result with a
// global atomic. Integers, so the order of the atomics does not matter.
kernel void dot_product(global const int *a, global const int *b, global int *result, uint n,
                local int *scratch) {
	uint gid = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
	uint stride = get_global_size(0);
	int s = 0;
	for (uint i = gid; i < n; i += stride)
		s += a[i] * b[i];
	scratch[lid] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint h = ls / 2; h > 0; h >>= 1) {
		if (lid < h)
			scratch[lid] += scratch[lid + h];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		atomic_add(result, scratch[0]);
}
