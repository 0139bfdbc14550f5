// transpose_lds: matrix transpose through a padded 16x16 local tile on a 2D
// grid; width and height are multiples of 16.
#define TILE 16
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(global const float *in, global float *out, uint width,
               uint height) {
  local float tile[TILE][TILE + 1];
  uint gx = get_global_id(0), gy = get_global_id(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[gy * width + gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ox = get_group_id(1) * TILE + lx;
  uint oy = get_group_id(0) * TILE + ly;
  out[oy * height + ox] = tile[lx][ly];
}
