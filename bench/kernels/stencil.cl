// 2D 5-point stencil (one Jacobi step) on a w x h grid; the border is
// copied.
kernel void stencil(global const float *in, global float *out, uint w, uint h) {
	uint x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	uint i = y * w + x;
	if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
		out[i] = in[i];
		return;
	}
	out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}
