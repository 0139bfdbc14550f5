package vmem

// Cache remembers the region a wave last accessed, so that one memory
// instruction costs one range check: the minimum and maximum address over
// the active lanes against the cached region. The zero value is ready to
// use. A Cache belongs to one wave (one goroutine at a time); it is not safe
// for concurrent use, though the Space it reads is.
type Cache struct {
	r *Region
}

// Range checks an instruction's whole access range [lo, hi) — lo the lowest
// lane address, hi one past the highest lane's last byte — for an access of
// kind acc, and returns the one region holding it. The fast path is the
// cached region; otherwise the table is searched and the cache updated.
//
// Range returns nil when no single region holds the range and the access is
// allowed: the lanes touch several regions, or some lane faults. The caller
// then checks each lane with Lookup, which reports the faulting lane's
// address. Range does not check per-lane atomic alignment (the minimum and
// maximum cannot tell); atomics pass each lane's address through Lookup or
// check alignment themselves.
func (c *Cache) Range(s *Space, lo, hi uint64, acc Access) *Region {
	if r := c.r; r != nil && lo-r.Base < r.Size && hi-lo <= r.Size-(lo-r.Base) &&
		(acc == AccessRead || r.writable) && !r.dead.Load() {
		return r
	}
	if hi < lo {
		return nil
	}
	r, err := s.Lookup(lo, hi-lo)
	if err != nil || (acc != AccessRead && !r.writable) {
		return nil
	}
	c.r = r
	return r
}

// Lookup checks one lane's access of size bytes at addr for kind acc, using
// and updating the cached region, and returns its region or the *Fault.
func (c *Cache) Lookup(s *Space, addr, size uint64, acc Access) (*Region, error) {
	r := c.r
	if r == nil || !r.Contains(addr, size) || r.dead.Load() {
		var err error
		if r, err = s.Lookup(addr, size); err != nil {
			err.(*Fault).Access = acc
			return nil, err
		}
		c.r = r
	}
	if err := checkAccess(r, addr, size, acc); err != nil {
		return nil, err
	}
	return r, nil
}

// Reset forgets the cached region.
func (c *Cache) Reset() { c.r = nil }
