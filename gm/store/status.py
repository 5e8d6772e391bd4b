"""The states a stored game, seat and mail go through, as the database holds them: read by the
store's models and by what looks at the database without them (gm.store.due)."""


class GameStatus:
    FORMING = "forming"  # waiting for players
    ACTIVE = "active"
    PAUSED = "paused"  # by the GM, or waiting for a replacement player
    FINISHED = "finished"


class SeatStatus:
    ACTIVE = "active"
    CIVIL_DISORDER = "civil-disorder"
    VACANT = "vacant"  # the player left or was ejected; waiting for a replacement
    ELIMINATED = "eliminated"


class InboundStatus:
    NEW = "new"
    DONE = "done"
    IGNORED = "ignored"  # auto-replies, bounces, our own mail (the reason is kept)
    SHUNTED = "shunted"  # failed; kept for `gm unshunt`


class OutboundStatus:
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"  # permanently; the GM was told
