"""What the report's bandwidth charts share (report.py's CPU sweep, report_gpu.py's GPU sweep and
host<->device copies): GB/s against bytes, both axes logarithmic, then the same grid, legend and file.
One function, so the three charts keep one look."""
import matplotlib.pyplot as plt


def finish_bandwidth_chart(fig, ax, path, xlabel, title, ylog=True):
    """Labels, scales, grid and legend of a GB/s-against-bytes chart; writes it to path and closes it."""
    ax.set_xscale("log", base=2)
    if ylog:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("GB/s")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
