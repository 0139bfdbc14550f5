// Math builtins (ocml) for the ULP-bound tests of package emu.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define NF 16
__kernel void mathf(__global const float *a, __global float *o, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float x = a[i];
  __global float *r = o + i * NF;
  r[0] = sin(x);
  r[1] = cos(x);
  r[2] = exp(x);
  r[3] = log(fabs(x) + 0.5f);
  r[4] = pow(fabs(x) + 0.25f, 1.3f);
  r[5] = fmod(x, 0.7f);
  r[6] = tan(x);
  r[7] = atan2(x, 1.5f);
  r[8] = cbrt(x);
  r[9] = exp2(x);
  r[10] = log2(fabs(x) + 0.5f);
  r[11] = sqrt(fabs(x));
  r[12] = rint(x * 3.0f);
  r[13] = ldexp(x, 7);
  r[14] = 1.0f / (x + 2.5f);
  r[15] = floor(x) + trunc(x * 1.5f);
}

#define ND 10
__kernel void mathd(__global const double *a, __global double *o, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  double x = a[i];
  __global double *r = o + i * ND;
  r[0] = sin(x);
  r[1] = cos(x);
  r[2] = exp(x);
  r[3] = log(fabs(x) + 0.5);
  r[4] = pow(fabs(x) + 0.25, 1.3);
  r[5] = sqrt(fabs(x));
  r[6] = x / (x + 3.5);
  r[7] = fma(x, x, -1.0);
  r[8] = floor(x) + ceil(x * 1.5) + trunc(x) + rint(x * 0.5);
  r[9] = (double)(float)x + (double)(int)(x * 1000.0);
}
