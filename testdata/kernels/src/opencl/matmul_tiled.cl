// matmul_tiled: C = A * B for n x n row-major matrices (n a multiple of 16),
// with 16x16 tiles staged in local memory. The sum runs over k in increasing
// order, so with -ffp-contract=off it equals a naive float reference exactly.
#define TILE 16
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(global const float *A, global const float *B, global float *C,
            uint n) {
  local float As[TILE][TILE];
  local float Bs[TILE][TILE];
  uint col = get_global_id(0), row = get_global_id(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < n; t += TILE) {
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; k++)
      acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
