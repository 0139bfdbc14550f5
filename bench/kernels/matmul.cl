// C = A * B for square n x n matrices (n a multiple of TILE), tiled through
// LDS; the sum runs over k in order on both sides.
#define TILE 16
kernel void matmul(global const float *A, global const float *B, global float *C, uint n) {
	local float As[TILE][TILE];
	local float Bs[TILE][TILE];
	uint tx = get_local_id(0), ty = get_local_id(1);
	uint col = get_global_id(0), row = get_global_id(1);
	float acc = 0.0f;
	for (uint t = 0; t < n; t += TILE) {
		As[ty][tx] = A[row * n + t + tx];
		Bs[ty][tx] = B[(t + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < TILE; k++)
			acc += As[ty][k] * Bs[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[row * n + col] = acc;
}
