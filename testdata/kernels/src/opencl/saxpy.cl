// saxpy: y[i] = alpha * x[i] + y[i]. With the default -ffp-contract=on clang
// fuses this into an FMA on AMDGPU; the -ffp-contract=off builds keep a
// separate multiply and add, so they match a non-fused reference exactly.
kernel void saxpy(float alpha, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
