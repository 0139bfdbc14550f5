// Source of gws_gfx90a.txt (isa/testdata/README): llvm-mc-15 assembles it for gfx90a,
// llvm-objdump-15 disassembles the object.
ds_gws_init v2 gds
ds_gws_init v0 offset:1 gds
ds_gws_init a8 offset:48504 gds
ds_gws_init v254 offset:65535 gds
ds_gws_barrier v2 gds
ds_gws_barrier v4 offset:3 gds
ds_gws_barrier a2 offset:63 gds
ds_gws_sema_v gds
ds_gws_sema_v offset:5 gds
ds_gws_sema_br v2 gds
ds_gws_sema_br v6 offset:2003 gds
ds_gws_sema_p gds
ds_gws_sema_p offset:64 gds
ds_gws_sema_release_all gds
ds_gws_sema_release_all offset:1 gds
.long 0xD93B0000, 0x00000003
.long 0xD9330000, 0x000000FF
.long 0xD93A0000, 0x00000002
.long 0xD9350000, 0x00000002
.long 0xD9390000, 0x01020300
