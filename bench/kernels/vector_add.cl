// Memory-bound: c = a + b.
kernel void vector_add(global const float *a, global const float *b, global float *c, uint n) {
	uint i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i];
}
