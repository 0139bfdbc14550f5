#!/usr/bin/env python3
# Writes one .s file per processor with kernels whose .amdhsa_* directives
# set (nearly) every descriptor field to a distinctive value. gen.sh
# assembles them with llvm-mc-15; descriptor_test.go checks that the Go
# decoder reads back exactly what the directives say.
targets = {
    # name: (family, flags)
    'gfx600': (6, set()),
    'gfx700': (7, {'flat'}),
    'gfx803': (8, {'flat'}),
    'gfx900': (9, {'flat', 'fp16'}),
    'gfx90a': (9, {'flat', 'fp16', 'accum'}),
    'gfx940': (9, {'fp16', 'accum', 'arch'}),
    'gfx1010': (10, {'flat', 'fp16', 'gfx10'}),
    'gfx1030': (10, {'flat', 'fp16', 'gfx10'}),
    'gfx1100': (11, {'fp16', 'gfx10', 'arch'}),
}
variants = [
    dict(vgpr=7, sgpr=11, wg='1 0 0 0', wi=0, rm32=0, rm1664=1, dm32=3, dm1664=2, dx10=1, ieee=1, fp16=0,
         ub='1 1 0 1 0 0 0', priv=1, exc='0 0 0 0 0 0 0', lds=0, scratch=16, kernarg=24, w32=1, wgp=1, mo=1, fwd=0,
         shared=0, accum=4, tgs=0),
    dict(vgpr=37, sgpr=30, wg='1 1 1 1', wi=2, rm32=3, rm1664=2, dm32=1, dm1664=0, dx10=0, ieee=0, fp16=1,
         ub='0 0 1 1 1 1 1', priv=0, exc='1 0 1 0 1 0 1', lds=1024, scratch=0, kernarg=300, w32=0, wgp=0, mo=0, fwd=1,
         shared=3, accum=12, tgs=1),
]
for name, (fam, fl) in targets.items():
    out = ['.amdgcn_target "amdgcn-amd-amdhsa--%s"' % name, '.text']
    for i, v in enumerate(variants):
        out += ['.globl k%d' % i, '.p2align 8', '.type k%d,@function' % i, 'k%d:' % i, '  s_endpgm']
    out += ['.rodata']
    for i, v in enumerate(variants):
        d = []
        d.append(('group_segment_fixed_size', v['lds']))
        d.append(('private_segment_fixed_size', v['scratch']))
        d.append(('kernarg_size', v['kernarg']))
        ub = v['ub'].split()
        names = ['private_segment_buffer', 'dispatch_ptr', 'queue_ptr', 'kernarg_segment_ptr', 'dispatch_id', 'flat_scratch_init', 'private_segment_size']
        for n, x in zip(names, ub):
            if 'arch' in fl and n in ('private_segment_buffer', 'flat_scratch_init'):
                continue
            d.append(('user_sgpr_' + n, int(x)))
        if 'gfx10' in fl:
            d.append(('wavefront_size32', v['w32']))
        d.append(('enable_private_segment' if 'arch' in fl else 'system_sgpr_private_segment_wavefront_offset', v['priv']))
        for n, x in zip(['x', 'y', 'z'], v['wg'].split()[:3]):
            d.append(('system_sgpr_workgroup_id_' + n, int(x)))
        d.append(('system_sgpr_workgroup_info', int(v['wg'].split()[3])))
        d.append(('system_vgpr_workitem_id', v['wi']))
        d.append(('next_free_vgpr', v['vgpr']))
        d.append(('next_free_sgpr', v['sgpr']))
        if 'accum' in fl:
            d.append(('accum_offset', v['accum']))
            d.append(('tg_split', v['tgs']))
        d.append(('reserve_vcc', 0))
        if 'flat' in fl:
            d.append(('reserve_flat_scratch', 0))
        d.append(('float_round_mode_32', v['rm32']))
        d.append(('float_round_mode_16_64', v['rm1664']))
        d.append(('float_denorm_mode_32', v['dm32']))
        d.append(('float_denorm_mode_16_64', v['dm1664']))
        d.append(('dx10_clamp', v['dx10']))
        d.append(('ieee_mode', v['ieee']))
        if 'fp16' in fl:
            d.append(('fp16_overflow', v['fp16']))
        if 'gfx10' in fl:
            d.append(('workgroup_processor_mode', v['wgp']))
            d.append(('memory_ordered', v['mo']))
            d.append(('forward_progress', v['fwd']))
            if False:  # needs the wavefrontsize64 subtarget in llvm-mc-15
                d.append(('shared_vgpr_count', v['shared']))
        exc = ['fp_ieee_invalid_op', 'fp_denorm_src', 'fp_ieee_div_zero', 'fp_ieee_overflow', 'fp_ieee_underflow', 'fp_ieee_inexact', 'int_div_zero']
        for n, x in zip(exc, v['exc'].split()):
            d.append(('exception_' + n, int(x)))
        out += ['.p2align 6', '.amdhsa_kernel k%d' % i] + ['  .amdhsa_%s %d' % kv for kv in d] + ['.end_amdhsa_kernel']
    open('%s.s' % name, 'w').write('\n'.join(out) + '\n')
