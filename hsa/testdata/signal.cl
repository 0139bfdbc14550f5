// Stores to an HSA signal from a kernel the way device code does
// (ockl's __ockl_hsa_signal_store: the value, then the event id to the
// signal's mailbox, then s_sendmsg(MSG_INTERRUPT)).
typedef struct hsa_signal_s { ulong handle; } hsa_signal_t;
void __ockl_hsa_signal_store(hsa_signal_t sig, long value, int order);

kernel void notify(ulong sig, long value) {
  if (get_global_id(0) == 0) {
    hsa_signal_t s = {sig};
    __ockl_hsa_signal_store(s, value, __ATOMIC_RELEASE);
  }
}
