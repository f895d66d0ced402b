"""Figures stay readable whatever the labels: wrapped labels never run into each other."""

from sim.report import plots
from sim.report.effects import Effect, effects_figure

LONG = (
    "the mine moved by club(mine_use=0), club(mine_use=1) (mine_step_2) vs no mine (no_mine): "
    "win share of club(mine_use=0), club(mine_use=1)"
)


def test_wrapped_effect_labels_do_not_run_into_each_other(monkeypatch):
    """Two-line labels on some rows and three-line ones on others: the rows are evenly spaced,
    so the panel must give every row room for its longest label."""
    boxes = []
    finish = plots.finish

    def measure(fig, name, title, caption=""):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax in fig.axes:
            boxes.append([t.get_window_extent(renderer) for t in ax.get_yticklabels()])
        return finish(fig, name, title, caption)

    monkeypatch.setattr(plots, "finish", measure)
    labels = ["short one", "another short one", "a two-line label " * 5, LONG, LONG]
    effects = [Effect(label, 1.0, 0.5, 1.5, True, "Rates") for label in labels]
    effects_figure("effects", "Effects", effects, xlabels={"Rates": "pp"}, caption="")
    assert boxes and all(len(b) == len(labels) for b in boxes)
    for panel in boxes:
        assert not any(a.overlaps(b) for a, b in zip(panel, panel[1:], strict=False))


def test_a_figure_saves_what_a_tight_savefig_saves():
    """finish measures the saved area itself (savefig then draws once): the PNG is the one
    matplotlib's own tight bounding box gives, the legend under the panels included."""
    import io

    import matplotlib

    def drawn():
        fig, axes = plots.new(1, 2, width=6, height=3)
        for k, ax in enumerate(axes.ravel()):
            plots.curve(ax, [1, 2, 3], [k, 2, 1], [k - 0.5, 1, 0], [k + 0.5, 3, 2], label="a")
            ax.set(title=f"panel {k}", xlabel="price (points)", ylabel="share (%)")
        plots.legend_below(fig, title="who")
        return fig

    finished = plots.finish(drawn(), "f", "F")
    fig, tight = drawn(), io.BytesIO()
    with matplotlib.rc_context(plots.STYLE):
        fig.tight_layout()
        fig.savefig(tight, format="png", dpi=plots.DPI, bbox_inches="tight", pad_inches=plots.PAD)
    assert finished.png == tight.getvalue()
    assert finished.legend_overlaps == 0
