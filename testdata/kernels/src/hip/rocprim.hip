// rocprim: Debian's rocPRIM over 1M elements: inclusive scan (its
// decoupled look-back makes workgroups spin on flags published by earlier
// workgroups), reduce, and radix sort of 32-bit keys. Built with -std=c++17.
#include "common.h"
#include <algorithm>
#include <rocprim/rocprim.hpp>
#include <vector>

int main() {
  const size_t n = 1 << 20;
  std::vector<int> h(n);
  std::vector<unsigned> keys(n);
  unsigned s = 13;
  for (size_t i = 0; i < n; i++) {
    h[i] = (int)(lcg(s) % 7) - 3;
    keys[i] = lcg(s) ^ (lcg(s) << 16);
  }
  int *din, *dscan, *dsum;
  unsigned *dkeys, *dsorted;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dscan, n * sizeof(int)));
  CHECK(hipMalloc(&dsum, sizeof(int)));
  CHECK(hipMalloc(&dkeys, n * sizeof(unsigned)));
  CHECK(hipMalloc(&dsorted, n * sizeof(unsigned)));
  CHECK(hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dkeys, keys.data(), n * sizeof(unsigned),
                  hipMemcpyHostToDevice));

  size_t bytes = 0;
  CHECK(rocprim::inclusive_scan(nullptr, bytes, din, dscan, n,
                                rocprim::plus<int>()));
  void *tmp;
  CHECK(hipMalloc(&tmp, bytes));
  CHECK(rocprim::inclusive_scan(tmp, bytes, din, dscan, n,
                                rocprim::plus<int>()));
  CHECK(hipFree(tmp));

  bytes = 0;
  CHECK(rocprim::reduce(nullptr, bytes, din, dsum, 0, n, rocprim::plus<int>()));
  CHECK(hipMalloc(&tmp, bytes));
  CHECK(rocprim::reduce(tmp, bytes, din, dsum, 0, n, rocprim::plus<int>()));
  CHECK(hipFree(tmp));

  bytes = 0;
  CHECK(rocprim::radix_sort_keys(nullptr, bytes, dkeys, dsorted, n));
  CHECK(hipMalloc(&tmp, bytes));
  CHECK(rocprim::radix_sort_keys(tmp, bytes, dkeys, dsorted, n));
  CHECK(hipFree(tmp));
  CHECK(hipDeviceSynchronize());

  std::vector<int> scan(n);
  std::vector<unsigned> sorted(n);
  int sum = 0;
  CHECK(hipMemcpy(scan.data(), dscan, n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&sum, dsum, sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(sorted.data(), dsorted, n * sizeof(unsigned),
                  hipMemcpyDeviceToHost));
  int acc = 0;
  for (size_t i = 0; i < n; i++) {
    acc += h[i];
    EXPECT(scan[i] == acc, "scan[%zu] = %d, want %d", i, scan[i], acc);
  }
  EXPECT(sum == acc, "reduce %d, want %d", sum, acc);
  std::sort(keys.begin(), keys.end());
  for (size_t i = 0; i < n; i++)
    EXPECT(sorted[i] == keys[i], "sorted[%zu] = %u, want %u", i, sorted[i],
           keys[i]);
  printf("PASSED rocprim\n");
  return 0;
}
