// int_intrinsics: __clz, __clzll, __ffs, __ffsll, __popc, __popcll,
// __brev, __brevll, __mul24, __umul24, __mulhi, __umulhi, __mul64hi,
// __umul64hi, __sad, __usad, __byte_perm, __uhadd, __urhadd, and 64-bit
// division/remainder, against host reference code. Left out: HIP 5.2's
// __hadd/__rhadd (its header returns `(value >> 1) || sign`, a boolean) and
// __uhadd/__urhadd on sums that overflow 32 bits (the header adds in 32
// bits); __umul24 returns int in HIP 5.2.
#include "common.h"

#define N 1024
#define NO 24

__global__ void ints(const unsigned *a, const unsigned *b,
                     const unsigned long long *c, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i];
  unsigned long long z = c[i], w = c[(i + 1) % N];
  unsigned long long *o = out + i * NO;
  o[0] = __clz((int)x);
  o[1] = __clzll((long long)z);
  o[2] = __ffs((int)x);
  o[3] = __ffsll((long long)z);
  o[4] = __popc(x);
  o[5] = __popcll(z);
  o[6] = __brev(x);
  o[7] = __brevll(z);
  o[8] = (unsigned)__mul24((int)x, (int)y);
  o[9] = (unsigned)__umul24(x, y);
  o[10] = (unsigned)__mulhi((int)x, (int)y);
  o[11] = __umulhi(x, y);
  o[12] = (unsigned long long)__mul64hi((long long)z, (long long)w);
  o[13] = __umul64hi(z, w);
  o[14] = __usad(x, y, 7u);
  o[15] = (unsigned)__sad((int)x, (int)y, 7u);
  o[16] = __byte_perm(x, y, 0x5140u);
  o[17] = __popc(x & y) + __clz((int)(x | y));
  o[18] = __brev(x ^ y);
  o[19] = __uhadd(x >> 1, y >> 1);
  o[20] = __urhadd(x >> 1, y >> 1);
  o[21] = w ? z / w : 0;
  o[22] = (unsigned long long)((long long)z % ((long long)w | 1));
  o[23] = y ? x % y : 0;
}

static int clz32(unsigned v) { return v ? __builtin_clz(v) : 32; }
static int clz64(unsigned long long v) { return v ? __builtin_clzll(v) : 64; }
static unsigned brev32(unsigned v) {
  unsigned r = 0;
  for (int k = 0; k < 32; k++) r |= ((v >> k) & 1u) << (31 - k);
  return r;
}
static unsigned long long brev64(unsigned long long v) {
  return ((unsigned long long)brev32((unsigned)v) << 32) | brev32((unsigned)(v >> 32));
}
static int sext24(unsigned v) { return (int)(v << 8) >> 8; }

int main() {
  static unsigned a[N], b[N];
  static unsigned long long c[N], out[N * NO];
  unsigned s = 99;
  for (int i = 0; i < N; i++) {
    a[i] = (lcg(s) << 8) ^ lcg(s);
    b[i] = (lcg(s) << 8) ^ lcg(s);
    c[i] = ((unsigned long long)((lcg(s) << 8) ^ lcg(s)) << 32) | ((lcg(s) << 8) ^ lcg(s));
    if (i % 7 == 0) a[i] >>= (i % 32);
    if (i % 11 == 0) c[i] >>= (i % 64);
    if (i % 13 == 0) b[i] = 0;
  }
  a[0] = 0; c[0] = 0; a[1] = 0x80000000u; c[1] = 1ull << 63; a[2] = 0xffffffffu;
  unsigned *da, *db;
  unsigned long long *dc, *dout;
  CHECK(hipMalloc(&da, sizeof a));
  CHECK(hipMalloc(&db, sizeof b));
  CHECK(hipMalloc(&dc, sizeof c));
  CHECK(hipMalloc(&dout, sizeof out));
  CHECK(hipMemcpy(da, a, sizeof a, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b, sizeof b, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dc, c, sizeof c, hipMemcpyHostToDevice));
  ints<<<N / 128, 128>>>(da, db, dc, dout);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  const char *names[NO] = {"clz", "clzll", "ffs", "ffsll", "popc", "popcll", "brev", "brevll", "mul24",
                           "umul24", "mulhi", "umulhi", "mul64hi", "umul64hi", "usad", "sad", "byte_perm",
                           "popc+clz", "brev xor", "uhadd", "urhadd", "udiv64", "srem64", "urem32"};
  for (int i = 0; i < N; i++) {
    unsigned x = a[i], y = b[i];
    unsigned long long z = c[i], w = c[(i + 1) % N];
    unsigned long long e[NO];
    e[0] = clz32(x);
    e[1] = clz64(z);
    e[2] = x ? __builtin_ctz(x) + 1 : 0;
    e[3] = z ? __builtin_ctzll(z) + 1 : 0;
    e[4] = __builtin_popcount(x);
    e[5] = __builtin_popcountll(z);
    e[6] = brev32(x);
    e[7] = brev64(z);
    e[8] = (unsigned)(sext24(x) * sext24(y));
    e[9] = (x & 0xffffff) * (y & 0xffffff);
    e[10] = (unsigned)(((long long)(int)x * (int)y) >> 32);
    e[11] = (unsigned)(((unsigned long long)x * y) >> 32);
    e[12] = (unsigned long long)(long long)(((__int128)(long long)z * (long long)w) >> 64);
    e[13] = (unsigned long long)(((unsigned __int128)z * w) >> 64);
    e[14] = (x > y ? x - y : y - x) + 7u;
    e[15] = (unsigned)((long long)(int)x > (long long)(int)y ? (long long)(int)x - (int)y : (long long)(int)y - (int)x) + 7u;
    {
      unsigned long long bytes = ((unsigned long long)y << 32) | x;
      unsigned sel = 0x5140u, r = 0;
      for (int k = 0; k < 4; k++) r |= (unsigned)((bytes >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
      e[16] = r;
    }
    e[17] = __builtin_popcount(x & y) + clz32(x | y);
    e[18] = brev32(x ^ y);
    e[19] = ((x >> 1) + (y >> 1)) >> 1;
    e[20] = ((x >> 1) + (y >> 1) + 1) >> 1;
    e[21] = w ? z / w : 0;
    e[22] = (unsigned long long)((long long)z % ((long long)w | 1));
    e[23] = y ? x % y : 0;
    for (int k = 0; k < NO; k++)
      EXPECT(out[i * NO + k] == e[k], "%s thread %d (x=%08x y=%08x z=%016llx w=%016llx): %llx want %llx", names[k], i,
             x, y, z, w, out[i * NO + k], e[k]);
  }
  DONE("int_intrinsics");
}
