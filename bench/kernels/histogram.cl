// 256-bin histogram of bytes with global atomics, several elements per
// work-item.
kernel void histogram(global const uchar *data, global uint *bins, uint n) {
	uint stride = get_global_size(0);
	for (uint i = get_global_id(0); i < n; i += stride)
		atomic_inc(&bins[data[i]]);
}
