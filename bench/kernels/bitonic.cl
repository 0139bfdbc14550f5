// One pass of a bitonic sort over n = 2^k uints: the host dispatches it
// k(k+1)/2 times.
kernel void bitonic(global uint *data, uint stage, uint pass) {
	uint i = get_global_id(0);
	uint dist = 1u << pass;
	uint left = ((i >> pass) << (pass + 1)) + (i & (dist - 1));
	uint right = left + dist;
	bool up = ((left >> (stage + 1)) & 1u) == 0;
	uint a = data[left], b = data[right];
	if ((a > b) == up) {
		data[left] = b;
		data[right] = a;
	}
}
