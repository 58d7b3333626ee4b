"""The environments' ``rgb_array`` render (sorry.rl.image): the board of sorry.svg as a picture,
from Gymnasium's registered id the way Stable-Baselines3's ``make_vec_env`` makes it, recorded
by Gymnasium's ``RecordVideo``, in PettingZoo and in the batched environment."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import RecordEpisodeStatistics, RecordVideo

from sorry import Game
from sorry.board import COLOUR_LETTERS
from sorry.cards import SORRY
from sorry.rl.gym_env import ENV_ID
from sorry.rl.image import board_rgb
from sorry.rl.pettingzoo_env import SorryAECEnv
from sorry.svg import DARK, FILL, LIGHT, board_geometry, board_svg

POSITION = "R:S,S,4,s2 B:S,S,S,s5 Y:12,33,40,H G:1,2,3,H G"


def rgb(hex_colour: str) -> np.ndarray[Any, Any]:
    h = hex_colour.lstrip("#")
    return np.array([int(h[k : k + 2], 16) for k in (0, 2, 4)])


def near(pixel: np.ndarray[Any, Any], hex_colour: str, tolerance: int = 6) -> bool:
    return bool(np.abs(pixel.astype(int) - rgb(hex_colour)).max() <= tolerance)


def test_the_picture_is_the_svg_board() -> None:
    """Every pawn the SVG draws is in the picture at the same place, in its colour (a pixel
    beside its letter), with its dark outline; the squares and circles around are the SVG's."""
    image = board_rgb(POSITION)
    assert image.shape == (640, 640, 3) and image.dtype == np.uint8
    svg = board_svg(POSITION)
    pawns = re.findall(r'class="pawn pawn-([RBYG])" transform="translate\(([\d.]+) ([\d.]+)\)', svg)
    assert len(pawns) == 16
    for letter, x, y in pawns:
        c = COLOUR_LETTERS.index(letter)
        cx, cy = round(float(x)), round(float(y))
        assert near(image[cy + 6, cx - 6], FILL[c]), (letter, x, y)  # the pawn, beside its letter
        assert near(image[cy, cx + 12], DARK[c], 40), (letter, x, y)  # its outline (r = 13)
    geo = board_geometry()
    x, y = geo["track"][7]  # an empty track square
    assert near(image[round(y) + 10, round(x) + 10], "#fffdf5")
    x, y = geo["home_circle"]["B"]  # Blue's HOME circle, empty
    assert near(image[round(y), round(x)], LIGHT[1])
    x, y = geo["safety"]["Y"][2]  # Yellow's empty Safety Zone square
    assert near(image[round(y), round(x)], LIGHT[2])
    # no pawn: the square of a pawn is the empty square's colour again
    empty = board_rgb("R:S,S,S,S B:S,S,S,S Y:S,S,S,S G:S,S,S,S R")
    x, y = geo["track"][4]
    assert near(empty[round(y) + 8, round(x) - 8], "#fffdf5")
    assert near(image[round(y) + 8, round(x) - 8], FILL[0])  # Red's pawn on 4


def test_the_card_in_play_and_sizes() -> None:
    game = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=7)
    with_card, without = board_rgb(game), board_rgb(game.position())
    frame = (slice(370, 374), slice(390, 426))  # the top of the card's frame, in Red
    assert all(near(p, FILL[0], 10) for p in with_card[frame].reshape(-1, 3))
    assert not np.array_equal(with_card, without)
    yellow = board_rgb(Game.from_position("R:S,S,4,s2 Y:12,33,40,H Y", card=SORRY))
    assert near(yellow[408, 408 - 44], FILL[2], 10)  # the Sorry! card, framed in Yellow
    small = board_rgb(POSITION, size=160)
    assert small.shape == (160, 160, 3)
    with pytest.raises(ValueError, match="at least 64"):
        board_rgb(POSITION, size=10)


def masked_step(env: gym.Env[Any, Any], rng: np.random.Generator) -> tuple[Any, ...]:
    mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    return env.step(int(rng.choice(np.flatnonzero(mask))))


def test_made_from_the_registered_id_as_make_vec_env_does() -> None:
    """Stable-Baselines3's ``make_vec_env("sorry/Sorry-v0", n_envs=2)`` calls, for each rank,
    ``gym.make(env_id, render_mode="rgb_array", **env_kwargs)``, seeds the action space, wraps
    the env in a monitor, and renders through ``env.render()``."""
    env_kwargs = {"players": 2, "opponents": "easy"}

    def make_env(rank: int) -> Any:
        def _init() -> gym.Env[Any, Any]:
            kwargs: dict[str, Any] = {"render_mode": "rgb_array"}
            kwargs.update(env_kwargs)
            env = gym.make(ENV_ID, **kwargs)
            env.action_space.seed(7 + rank)
            return RecordEpisodeStatistics(env)

        return _init

    envs = [make_env(rank)() for rank in range(2)]
    rng = np.random.default_rng(0)
    for rank, env in enumerate(envs):
        assert env.render_mode == "rgb_array"
        env.reset(seed=7 + rank)
        first = env.render()
        for _ in range(5):
            masked_step(env, rng)
        frame = env.render()
        assert isinstance(frame, np.ndarray) and frame.shape == (640, 640, 3)
        assert frame.dtype == np.uint8 and not np.array_equal(frame, first)
        game = env.unwrapped.game  # type: ignore[attr-defined]
        assert np.array_equal(frame, board_rgb(game))


def test_record_video(tmp_path: Path) -> None:
    """Gymnasium's RecordVideo writes an episode's frames as an MP4 that decodes back to the
    rendered boards."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")  # with moviepy (the test extra)
    env = gym.make(ENV_ID, render_mode="rgb_array", players=2, opponents="random")
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: episode == 0,
                      video_length=12, name_prefix="sorry")  # fmt: skip
    rng = np.random.default_rng(1)
    env.reset(seed=3)
    frames = [env.render()]
    for _ in range(11):
        masked_step(env, rng)
        frames.append(env.render())
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert [v.name for v in videos] == ["sorry-episode-0.mp4"]
    reader = imageio_ffmpeg.read_frames(str(videos[0]))
    meta = next(reader)
    assert tuple(meta["size"]) == (640, 640)
    decoded = [np.frombuffer(raw, np.uint8).reshape(640, 640, 3) for raw in reader]
    assert 10 <= len(decoded) <= 13
    # lossy compression: a decoded frame is close to the board rendered at that step
    error = np.abs(decoded[5].astype(int) - np.asarray(frames[5], dtype=int)).mean()
    assert error < 8, error


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_checker_renders_rgb_array() -> None:
    check_env(gym.make(ENV_ID, render_mode="rgb_array", players=3).unwrapped)


def test_pettingzoo_rgb_array() -> None:
    env = SorryAECEnv(players=4, variant="teams", render_mode="rgb_array")
    env.reset(seed=2)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (640, 640, 3)
    assert np.array_equal(frame, board_rgb(env.game))
    assert "rgb_array" in env.metadata["render_modes"]


def test_vector_rgb_array() -> None:
    vector = pytest.importorskip("sorry.rl.vector")
    env = vector.SorryVectorEnv(num_envs=2, players=2, render_mode="rgb_array")
    env.reset(seed=1)
    frames = env.render()
    assert len(frames) == 2
    for i, frame in enumerate(frames):
        assert frame.shape == (640, 640, 3) and frame.dtype == np.uint8
        position = env.position(i)
        assert not np.array_equal(frame, board_rgb(position))  # the card in play is shown
    assert env.board_image(0, size=128).shape == (128, 128, 3)
