// byval_args: a struct and vector types passed by value in the kernarg
// segment (the struct's alignment and padding follow the OpenCL C ABI).
typedef struct {
  float scale;
  int offset;
  float4 bias;
  int2 range;
  char tag;
  long big;
} Params;

kernel void byval_args(Params p, float4 v, int2 iv, global const float4 *in,
                       global float4 *out, global int *iout) {
  size_t i = get_global_id(0);
  float4 x = in[i];
  out[i] = x * p.scale + p.bias + v;
  int k = (int)i * iv.x + iv.y + p.offset;
  iout[i * 4 + 0] = clamp(k, p.range.x, p.range.y);
  iout[i * 4 + 1] = (int)p.tag;
  iout[i * 4 + 2] = (int)(p.big >> 32);
  iout[i * 4 + 3] = (int)p.big;
}
