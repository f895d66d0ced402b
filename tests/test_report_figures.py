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
