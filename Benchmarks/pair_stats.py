"""What the interleaved-pair benchmarks (startup-vs-gst-launch.sh, farm-vs-single.sh) print beside a median ratio."""
import statistics


def spread(values):
    """The quartiles and the extremes of `values` (the extremes alone for fewer than four)."""
    values = sorted(values)
    if len(values) < 4:
        return f"{values[0]:.2f}-{values[-1]:.2f}"
    low, _, high = statistics.quantiles(values, n=4)
    return f"quartiles {low:.2f}-{high:.2f}, all {values[0]:.2f}-{values[-1]:.2f}"
