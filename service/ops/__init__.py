"""Operations endpoints: health, readiness and Prometheus metrics (SPEC §4.9)."""
