// Inclusive prefix sum of uints in three kernels: scan_block scans
// ELEMS*local_size elements per work-group in LDS and writes the block's
// total; the totals are scanned by scan_block again (one group); add_sums
// adds each block's exclusive prefix.
#define ELEMS 16
kernel void scan_block(global uint *data, global uint *sums, uint n, local uint *tmp) {
	uint lid = get_local_id(0), ls = get_local_size(0);
	uint base = get_group_id(0) * ls * ELEMS + lid * ELEMS;
	uint v[ELEMS];
	uint run = 0;
	for (uint k = 0; k < ELEMS; k++) {
		uint x = base + k < n ? data[base + k] : 0;
		run += x;
		v[k] = run;
	}
	tmp[lid] = run;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < ls; off <<= 1) {
		uint t = lid >= off ? tmp[lid - off] : 0;
		barrier(CLK_LOCAL_MEM_FENCE);
		tmp[lid] += t;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	uint prefix = lid > 0 ? tmp[lid - 1] : 0;
	for (uint k = 0; k < ELEMS; k++)
		if (base + k < n)
			data[base + k] = v[k] + prefix;
	if (lid == ls - 1)
		sums[get_group_id(0)] = tmp[lid];
}

kernel void add_sums(global uint *data, global const uint *sums, uint n) {
	uint g = get_group_id(0);
	if (g == 0)
		return;
	uint add = sums[g - 1];
	uint base = g * get_local_size(0) * ELEMS + get_local_id(0) * ELEMS;
	for (uint k = 0; k < ELEMS; k++)
		if (base + k < n)
			data[base + k] += add;
}
