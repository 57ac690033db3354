package observational

// SetWaiting sets the function p calls, with the record's key, when a
// step starts waiting for a buffered operation in flight.
func SetWaiting(p *Processor, f func(key string)) { p.waiting = f }
