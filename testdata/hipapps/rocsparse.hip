// rocsparse: Debian's rocSPARSE (its fat binary carries gfx90a code) on
// the emulated GPU: double-precision CSR SpMV y = alpha*A*x + beta*y, both
// without analysis and with rocsparse_dcsrmv_analysis (the adaptive
// algorithm), on a random 2000 x 1500 matrix with empty and long rows, and
// the transposed product; plus rocsparse_ddoti and rocsparse_dgthr, all
// checked against host computations.
// hipcc-flags: -lrocsparse
// needs: /usr/include/rocsparse/rocsparse.h
#include "common.h"
#include <cmath>
#include <vector>
#include <rocsparse/rocsparse.h>

#define SCHECK(call)                                                        \
  do {                                                                      \
    rocsparse_status s_ = (call);                                           \
    if (s_ != rocsparse_status_success) {                                   \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,  \
              (int)s_);                                                     \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

int main() {
  const int m = 2000, n = 1500;
  std::vector<int> rowptr(m + 1), col;
  std::vector<double> val;
  unsigned s = 12;
  rowptr[0] = 0;
  for (int i = 0; i < m; i++) {
    int len = i % 97 == 0 ? 0 : (i % 331 == 0 ? 700 : (int)(lcg(s) % 12));
    int c = (int)(lcg(s) % 50);
    for (int k = 0; k < len && c < n; k++) {
      col.push_back(c);
      val.push_back(((int)(lcg(s) % 2001) - 1000) / 64.0);
      c += 1 + (int)(lcg(s) % (len > 100 ? 2 : 150));
    }
    rowptr[i + 1] = (int)col.size();
  }
  const int nnz = (int)col.size();
  std::vector<double> x(n), xt(m), y0(m), yt0(n);
  for (auto &v : x) v = ((int)(lcg(s) % 201) - 100) / 16.0;
  for (auto &v : xt) v = ((int)(lcg(s) % 201) - 100) / 16.0;
  for (auto &v : y0) v = ((int)(lcg(s) % 201) - 100) / 8.0;
  for (auto &v : yt0) v = ((int)(lcg(s) % 201) - 100) / 8.0;
  const double alpha = 1.5, beta = -0.5;

  int *drow, *dcol;
  double *dval, *dx, *dy, *dxt, *dyt;
  CHECK(hipMalloc(&drow, (m + 1) * sizeof(int)));
  CHECK(hipMalloc(&dcol, nnz * sizeof(int)));
  CHECK(hipMalloc(&dval, nnz * sizeof(double)));
  CHECK(hipMalloc(&dx, n * sizeof(double)));
  CHECK(hipMalloc(&dy, m * sizeof(double)));
  CHECK(hipMalloc(&dxt, m * sizeof(double)));
  CHECK(hipMalloc(&dyt, n * sizeof(double)));
  CHECK(hipMemcpy(drow, rowptr.data(), (m + 1) * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dcol, col.data(), nnz * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dval, val.data(), nnz * sizeof(double), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(double), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxt, xt.data(), m * sizeof(double), hipMemcpyHostToDevice));

  rocsparse_handle h;
  rocsparse_mat_descr descr;
  rocsparse_mat_info info;
  SCHECK(rocsparse_create_handle(&h));
  SCHECK(rocsparse_create_mat_descr(&descr));
  SCHECK(rocsparse_create_mat_info(&info));

  std::vector<double> ye(m), yte(n, 0.0), y(m);
  for (int i = 0; i < m; i++) {
    double acc = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) acc += val[k] * x[col[k]];
    ye[i] = alpha * acc + beta * y0[i];
  }
  for (int i = 0; i < m; i++)
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) yte[col[k]] += val[k] * xt[i];
  for (int j = 0; j < n; j++) yte[j] = alpha * yte[j] + beta * yt0[j];

  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1)
      SCHECK(rocsparse_dcsrmv_analysis(h, rocsparse_operation_none, m, n, nnz, descr, dval, drow, dcol, info));
    CHECK(hipMemcpy(dy, y0.data(), m * sizeof(double), hipMemcpyHostToDevice));
    SCHECK(rocsparse_dcsrmv(h, rocsparse_operation_none, m, n, nnz, &alpha, descr, dval, drow, dcol,
                            pass ? info : nullptr, dx, &beta, dy));
    CHECK(hipMemcpy(y.data(), dy, m * sizeof(double), hipMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
      EXPECT(fabs(y[i] - ye[i]) <= 1e-9 * (1 + fabs(ye[i])), "csrmv%s row %d: %.17g want %.17g",
             pass ? " (analysed)" : "", i, y[i], ye[i]);
  }
  std::vector<double> yt(n);
  CHECK(hipMemcpy(dyt, yt0.data(), n * sizeof(double), hipMemcpyHostToDevice));
  SCHECK(rocsparse_dcsrmv(h, rocsparse_operation_transpose, m, n, nnz, &alpha, descr, dval, drow, dcol, nullptr, dxt,
                          &beta, dyt));
  CHECK(hipMemcpy(yt.data(), dyt, n * sizeof(double), hipMemcpyDeviceToHost));
  for (int j = 0; j < n; j++)
    EXPECT(fabs(yt[j] - yte[j]) <= 1e-9 * (1 + fabs(yte[j])), "transposed csrmv %d: %.17g want %.17g", j, yt[j], yte[j]);

  // a sparse vector over every third entry of x
  const int nzv = 400;
  std::vector<int> ind(nzv);
  std::vector<double> xv(nzv);
  for (int k = 0; k < nzv; k++) { ind[k] = k * 3 + 1; xv[k] = (k % 17) - 8.0; }
  int *dind;
  double *dxv, *dres, dot = 0, edot = 0;
  CHECK(hipMalloc(&dind, nzv * sizeof(int)));
  CHECK(hipMalloc(&dxv, nzv * sizeof(double)));
  CHECK(hipMalloc(&dres, sizeof(double)));
  CHECK(hipMemcpy(dind, ind.data(), nzv * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxv, xv.data(), nzv * sizeof(double), hipMemcpyHostToDevice));
  SCHECK(rocsparse_set_pointer_mode(h, rocsparse_pointer_mode_host));
  SCHECK(rocsparse_ddoti(h, nzv, dxv, dind, dx, &dot, rocsparse_index_base_zero));
  for (int k = 0; k < nzv; k++) edot += xv[k] * x[ind[k]];
  EXPECT(fabs(dot - edot) <= 1e-9 * (1 + fabs(edot)), "doti %.17g want %.17g", dot, edot);
  SCHECK(rocsparse_dgthr(h, nzv, dx, dxv, dind, rocsparse_index_base_zero));
  CHECK(hipMemcpy(xv.data(), dxv, nzv * sizeof(double), hipMemcpyDeviceToHost));
  for (int k = 0; k < nzv; k++) EXPECT(xv[k] == x[ind[k]], "gthr %d: %g want %g", k, xv[k], x[ind[k]]);

  SCHECK(rocsparse_destroy_mat_info(info));
  SCHECK(rocsparse_destroy_mat_descr(descr));
  SCHECK(rocsparse_destroy_handle(h));
  DONE("rocsparse");
}
