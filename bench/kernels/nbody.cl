// One n-body step's accelerations: all pairs, float ALU and rsqrt.
// pos[i] = (x, y, z, mass).
kernel void nbody(global const float4 *pos, global float4 *acc, uint n, float soft) {
	uint i = get_global_id(0);
	if (i >= n)
		return;
	float4 p = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (uint j = 0; j < n; j++) {
		float4 q = pos[j];
		float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
		float r2 = dx * dx + dy * dy + dz * dz + soft;
		float inv = rsqrt(r2);
		float s = q.w * inv * inv * inv;
		ax += dx * s;
		ay += dy * s;
		az += dz * s;
	}
	acc[i] = (float4)(ax, ay, az, 0.0f);
}
