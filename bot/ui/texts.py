"""Every word the Discord layer shows (besides narration and manager errors), in English and French.

Public game messages speak the game's language (chosen per guild with ``/carcassonne settings``);
ephemeral replies speak the clicking player's Discord language when we have it, else the game's.

>>> tr("your_turn", "fr", player="<@1>")
'<@1>, à vous de jouer !'
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import language

TEXTS: dict[str, tuple[str, str]] = {
    # -- lobby --------------------------------------------------------------------------------
    "lobby_title": ("{title} #{game_id}", "{title} n°{game_id}"),
    "lobby_body": (
        "{owner} opens a game. Press **Join** to play; {owner} presses **Start** when everyone "
        "is in.",
        "{owner} ouvre une partie. Appuyez sur **Rejoindre** pour jouer ; {owner} appuie sur "
        "**Commencer** quand tout le monde est là.",
    ),
    "lobby_players": ("Players ({count}/{max})", "Joueurs ({count}/{max})"),
    "lobby_setup": ("Game", "Partie"),
    "lobby_started": (
        "Game started: follow it in {where}.",
        "Partie commencée : suivez-la dans {where}.",
    ),
    "lobby_abandoned": ("This game was abandoned.", "Cette partie a été abandonnée."),
    "cancel": ("Cancel game", "Annuler la partie"),
    "option_length": (
        "`{option}` must be {low} to {high} characters long: shorten it and try again.",
        "`{option}` doit compter de {low} à {high} caractères : raccourcissez-le et réessayez.",
    ),
    "option_range": (
        "`{option}` must be a number from {low} to {high}: try again with one.",
        "`{option}` doit être un nombre de {low} à {high} : réessayez avec un tel nombre.",
    ),
    "option_choice": (
        "“{value}” is not a choice of `{option}`: pick one of {allowed}.",
        "« {value} » n'est pas un choix de `{option}` : choisissez parmi {allowed}.",
    ),
    "cooldown": (
        "That was asked a lot just now: try again in {seconds} s. (Turns are never slowed.)",
        "Demandé souvent à l'instant : réessayez dans {seconds} s. (Les tours ne sont jamais "
        "ralentis.)",
    ),
    "lobby_cancelled": (
        "Game #{game_id} was cancelled by {who}.",
        "La partie n°{game_id} a été annulée par {who}.",
    ),
    "game_abandoned": (
        "Game #{game_id} was abandoned by {who}: it ends here without a winner.",
        "La partie n°{game_id} a été abandonnée par {who} : elle s'arrête sans gagnant.",
    ),
    "abandon_done": ("Game #{game_id} is abandoned.", "La partie n°{game_id} est abandonnée."),
    "abandon_refused": (
        "Only the creator of a game can abandon it (once it has started, the other players must "
        "agree), or a server admin (Manage Server). To leave it yourself, use /carcassonne "
        "resign.",
        "Seul le créateur d'une partie peut l'abandonner (une fois commencée, les autres joueurs "
        "doivent être d'accord), ou un admin du serveur (Gérer le serveur). Pour la quitter "
        "vous-même, utilisez /carcassonne abandonner.",
    ),
    "abandon_request": (
        "🛑 {asker} asks to abandon game #{game_id}: it would end here, without a winner. "
        "Everyone still playing must agree.\nAgreed: {agreed} · Waiting for: {missing}",
        "🛑 {asker} demande d'abandonner la partie n°{game_id} : elle s'arrêterait ici, sans "
        "gagnant. Tous les joueurs encore en jeu doivent être d'accord.\nD'accord : {agreed} · "
        "En attente de : {missing}",
    ),
    "abandon_asked": (
        "Asked in the game's thread: the game is abandoned once {missing} agree.",
        "Demandé dans le fil de la partie : elle est abandonnée dès que {missing} sont d'accord.",
    ),
    "abandon_refused_by": (
        "🛑 {player} refused to abandon game #{game_id}: the game goes on.",
        "🛑 {player} refuse d'abandonner la partie n°{game_id} : la partie continue.",
    ),
    "abandon_agreed": (
        "🛑 Everyone agreed: game #{game_id} is abandoned, without a winner.",
        "🛑 Tout le monde est d'accord : la partie n°{game_id} est abandonnée, sans gagnant.",
    ),
    "private_game": ("private (own thread)", "privée (fil privé)"),
    "public_game": ("public", "publique"),
    "join": ("Join", "Rejoindre"),
    "leave": ("Leave", "Quitter"),
    "start": ("Start", "Commencer"),
    "options": ("Options", "Options"),
    "joined": ("You joined game #{game_id}.", "Vous avez rejoint la partie n°{game_id}."),
    "left": ("You left game #{game_id}.", "Vous avez quitté la partie n°{game_id}."),
    "options_intro": (
        "Choose the options of game #{game_id}; the lobby message shows the result.",
        "Choisissez les options de la partie n°{game_id} ; le message d'inscription les affiche.",
    ),
    "options_saved": ("Options saved.", "Options enregistrées."),
    "options_not_owner": (
        "Only {owner}, who opened the game, can change its options. To pick your colour, "
        "press **Colour**.",
        "Seul {owner}, qui a ouvert la partie, peut changer ses options. Pour choisir votre "
        "couleur, appuyez sur **Couleur**.",
    ),
    "hand_off": ("Tactical hand: off", "Main tactique : non"),
    "hand_on": ("Tactical hand: on", "Main tactique : oui"),
    "seats": ("Seat order…", "Ordre de jeu…"),
    "seats_intro": (
        "Turn order: {order}. Pick a player, then the seat to move them to, or shuffle.",
        "Ordre de jeu : {order}. Choisissez un joueur puis sa nouvelle place, ou mélangez.",
    ),
    "seat_who": ("Player to move…", "Joueur à déplacer…"),
    "seat_to": ("Move {player} to…", "Déplacer {player} en…"),
    "seat_option": ("Seat {n}", "Place {n}"),
    "shuffle": ("Shuffle", "Mélanger"),
    "back_to_options": ("Back to options", "Retour aux options"),
    "colour": ("Colour", "Couleur"),
    "colour_intro": (
        "Pick your colour. Each colour also has its own mark on the figures.",
        "Choisissez votre couleur. Chaque couleur a aussi sa marque sur les pions.",
    ),
    "colour_saved": ("Your colour: {colour}.", "Votre couleur : {colour}."),
    "colour_yours": ("yours", "la vôtre"),
    "colour_taken_note": ("taken by {player}", "prise par {player}"),
    "colour_taken_by": (
        "{colour} is taken by {player}: pick another colour.",
        "La couleur {colour} est prise par {player} : choisissez-en une autre.",
    ),
    "colour_join_first": (
        "Join game #{game_id} first, then pick your colour.",
        "Rejoignez d'abord la partie n°{game_id}, puis choisissez votre couleur.",
    ),
    "colour_fixed": (
        "In this game each seat has a fixed colour.",
        "Dans ce jeu, chaque place a une couleur fixe.",
    ),
    "colour_red": ("orange", "orange"),
    "colour_blue": ("blue", "bleu"),
    "colour_yellow": ("yellow", "jaune"),
    "colour_green": ("green", "vert"),
    "colour_purple": ("pink", "rose"),
    "colour_black": ("black", "noir"),
    "thread_name": ("{title} #{game_id}", "{title} n°{game_id}"),
    "welcome": (
        "Game #{game_id} begins: {players}. Turn order is as listed.",
        "La partie n°{game_id} commence : {players}. L'ordre de jeu est celui de la liste.",
    ),
    # -- turns --------------------------------------------------------------------------------
    "your_turn": ("{player}, your turn!", "{player}, à vous de jouer !"),
    "turn_hand": (
        "Press **My tiles** to choose one of your 3 tiles. Everyone may press it to see their "
        "own hand; nobody else sees it.",
        "Appuyez sur **Mes tuiles** pour choisir l'une de vos 3 tuiles. Chacun peut l'utiliser "
        "pour voir sa propre main ; personne d'autre ne la voit.",
    ),
    "hand_wait": (
        "Your tiles: {hand}. It is {player}'s turn; you will choose one on yours.",
        "Vos tuiles : {hand}. C'est au tour de {player} ; vous choisirez au vôtre.",
    ),
    "turn_place": (
        "Tile to place: **{words}**. Pick a square and a rotation in the menu (the picture "
        "shows the lettered squares and each rotation).",
        "Tuile à poser : **{words}**. Choisissez une case et une orientation dans le menu "
        "(l'image montre les cases lettrées et chaque orientation).",
    ),
    "bonus_place": (
        "Bonus tile: **{words}**. Place it now, it is still your turn.",
        "Tuile bonus : **{words}**. Posez-la maintenant, c'est toujours votre tour.",
    ),
    "off_picture": (
        "Squares outside this picture: {labels} (`/carcassonne board` shows the whole board).",
        "Cases hors de cette image : {labels} (`/carcassonne plateau` montre tout le plateau).",
    ),
    "put_menu": ("Square and rotation {first} to {last}…", "Case et orientation {first} à {last}…"),
    "hand_prefix": ("Tile {n} · ", "Tuile {n} · "),
    "final_board": (
        "Game #{game_id} is over: its final board.",
        "La partie n°{game_id} est finie : son plateau final.",
    ),
    "put_abbey": ("Abbey in hole {label}", "Abbaye dans le trou {label}"),
    "put_abbey_desc": ("Your abbey instead of the tile", "Votre abbaye au lieu de la tuile"),
    "more_squares": ("More squares", "Autres cases"),
    "more_intro": (
        "The other squares where the tile fits:",
        "Les autres cases où la tuile se pose :",
    ),
    "step_intro": (
        "Square **{label}**, turned {rotation}°.",
        "Case **{label}**, tournée de {rotation}°.",
    ),
    "step_intro_one": (
        "Square **{label}** (the tile fits only this way there).",
        "Case **{label}** (la tuile ne se pose que de cette façon ici).",
    ),
    "step_abbey": ("Your abbey in hole **{label}**.", "Votre abbaye dans le trou **{label}**."),
    "step_pick": (
        "Tap a numbered spot to put a figure there, or **No figure**: your tap plays the move. "
        "Another square or rotation in the turn message changes this step.",
        "Touchez un endroit numéroté pour y poser un pion, ou **Aucun pion** : votre choix joue "
        "le coup. Une autre case ou orientation dans le message du tour modifie cette étape.",
    ),
    "step_no_spot": (
        "No figure can go on this tile. **Place the tile** plays the move.",
        "Aucun pion ne peut aller sur cette tuile. **Poser la tuile** joue le coup.",
    ),
    "place_tile": ("Place the tile", "Poser la tuile"),
    "turn_button": ("↻ {rotation}°", "↻ {rotation}°"),
    "played_step": ("Played: {what}.", "Joué : {what}."),
    "played_tile": ("square {label}, turned {rotation}°", "case {label}, tournée de {rotation}°"),
    "played_figure": ("{role} on the {spot}", "{role} sur : {spot}"),
    "played_abbey": ("your abbey in hole {label}", "votre abbaye dans le trou {label}"),
    "played_none": ("no figure", "aucun pion"),
    "spot_option": ("{label} · {role} · {spot}", "{label} · {role} · {spot}"),
    "spot_menu": ("Put a figure on spot…", "Poser un pion sur l'endroit…"),
    "cell_option": ("Square {label}", "Case {label}"),
    "my_tiles": ("My tiles", "Mes tuiles"),
    "hand_intro": (
        "Your tiles: {hand}. Which one do you play?",
        "Vos tuiles : {hand}. Laquelle jouez-vous ?",
    ),
    "hand_cells": (
        "Tile **{tile}**: pick a lettered square.",
        "Tuile **{tile}** : choisissez une case lettrée.",
    ),
    "abbey": ("Play my abbey", "Jouer mon abbaye"),
    "abbey_pick": (
        "Pick the hole for your abbey.",
        "Choisissez le trou où poser votre abbaye.",
    ),
    "holes_menu": ("Holes", "Trous"),
    "rotate_intro": (
        "Tile **{tile}** at square {label} {where}, turned {rotation}°.",
        "Tuile **{tile}** en case {label} {where}, tournée de {rotation}°.",
    ),
    "abbey_intro": (
        "Your abbey at {where}. Put a monk or your wagon on it, or no figure, then Confirm.",
        "Votre abbaye en {where}. Posez-y un moine ou votre chariot, ou aucun pion, puis "
        "Confirmer.",
    ),
    "rotations_hint": (
        "Pick a rotation (the pictures show each one in place), a figure or none, then Confirm.",
        "Choisissez une rotation (les images montrent chacune en place), un pion ou aucun, puis "
        "Confirmer.",
    ),
    "one_rotation_hint": (
        "The tile can lie only this way here. Choose a figure or none, then Confirm.",
        "La tuile ne peut se poser que de cette façon ici. Choisissez un pion ou aucun, puis "
        "Confirmer.",
    ),
    "figure_menu": ("Put a figure on a numbered spot…", "Poser un pion sur un endroit numéroté…"),
    "figure_what": (
        "{label} · {role} on {feature}",
        "{label} · {role} sur {feature}",
    ),
    "barn_what": ("{label} · barn on the field corner", "{label} · grange au coin des prés"),
    "no_figures_left": (
        "No figure can go on this tile.",
        "Aucun pion ne peut aller sur cette tuile.",
    ),
    "chosen_none": ("Chosen: no figure.", "Choix : aucun pion."),
    "chosen_figure": ("Chosen: {role} on spot {label}.", "Choix : {role} sur l'endroit {label}."),
    "no_figure": ("No figure", "Aucun pion"),
    "confirm": ("Confirm", "Confirmer"),
    "done": ("Played.", "Joué."),
    "figure_prompt": (
        "Your tile is down: put a figure on it, or none.",
        "Votre tuile est posée : posez-y un pion, ou aucun.",
    ),
    "choose_figure": ("Choose my figure", "Choisir mon pion"),
    "wagon_prompt": (
        "{player}, your wagon is free: move it to a lettered spot, or take it back.",
        "{player}, votre chariot est libre : déplacez-le vers un endroit lettré, ou reprenez-le.",
    ),
    "wagon_menu": ("Move the wagon to…", "Déplacer le chariot vers…"),
    "wagon_option": ("{label}: {feature} at {where}", "{label} : {feature} en {where}"),
    "wagon_back": ("Take the wagon back", "Reprendre le chariot"),
    "chosen_wagon": (
        "Chosen: wagon to {label}, {feature} at {where}.",
        "Choix : chariot vers {label}, {feature} en {where}.",
    ),
    "chosen_wagon_back": ("Chosen: take the wagon back.", "Choix : reprendre le chariot."),
    "end_abbey_prompt": (
        "{player}, the last tile is down: put your abbey into a lettered hole, or pass.",
        "{player}, la dernière tuile est posée : posez votre abbaye dans un trou lettré, "
        "ou passez.",
    ),
    "no_abbey": ("No abbey", "Pas d'abbaye"),
    "chosen_no_abbey": ("Chosen: no abbey.", "Choix : pas d'abbaye."),
    "status_line": (
        "Game #{game_id} · turn {turn} · {tiles} tiles left · {player} to play",
        "Partie n°{game_id} · tour {turn} · {tiles} tuiles restantes · à {player} de jouer",
    ),
    "score_line": ("{name}: {score}", "{name} : {score}"),
    "final_title": ("Final scores", "Scores finaux"),
    "final_left": ("left the game", "a quitté la partie"),
    "final_gold": ("Gold {n}", "Or {n}"),
    "final_nothing": ("no points", "aucun point"),
    "final_end_scoring": ("Scored at the end", "Marqué en fin de partie"),
    "final_end_line": ("**{label}**: {listed}", "**{label}** : {listed}"),
    "end_winner": (
        "Game over! 🏆 {players} wins with {score} points.",
        "Fin ! 🏆 {players} gagne avec {score} points.",
    ),
    "end_winners": (
        "Game over! 🏆 {players} share the win with {score} points.",
        "Fin ! 🏆 {players} gagnent ex æquo avec {score} points.",
    ),
    "resigned": (
        "{player} resigned: their figures stay on the board but score nothing, and they can no "
        "longer win.",
        "{player} abandonne : ses pions restent sur le plateau mais ne marquent plus rien, et "
        "ce joueur ne peut plus gagner.",
    ),
    "resigned_end": (
        "{player} resigned. {winners} wins.",
        "{player} abandonne. {winners} gagne.",
    ),
    "undone": (
        "↩️ The last turn was taken back ({player}).",
        "↩️ Le dernier tour a été repris ({player}).",
    ),
    "undo_request": (
        "↩️ {asker} asks to take back the last turn ({whose}'s): its tile and figure go back. "
        "Everyone still playing must agree.\nAgreed: {agreed} · Waiting for: {missing}",
        "↩️ {asker} demande de reprendre le dernier tour (celui de {whose}) : sa tuile et son pion "
        "sont retirés. Tous les joueurs encore en jeu doivent accepter.\nD'accord : {agreed} · "
        "En attente de : {missing}",
    ),
    "undo_agree": ("Agree", "D'accord"),
    "solo_confirm": (
        "Nobody has joined game #{game_id} yet. Start it alone, as a solo game? (Otherwise "
        "wait for players to press Join.)",
        "Personne n'a encore rejoint la partie n°{game_id}. La commencer seul, en solo ? "
        "(Sinon, attendez que des joueurs appuient sur Rejoindre.)",
    ),
    "json_too_deep": (
        "it is nested too deeply (more than {limit} lists or objects inside each other, at line "
        "{line}, column {column}); a record is a flat object with a list of actions",
        "il est imbriqué trop profondément (plus de {limit} listes ou objets les uns dans les "
        "autres, ligne {line}, colonne {column}) ; un enregistrement est un objet simple avec "
        "une liste d'actions",
    ),
    "solo_start": ("Start alone", "Commencer seul"),
    "help_turn": ("How a turn works", "Comment se joue un tour"),
    "help_commands": ("Commands", "Commandes"),
    "help_rules": ("Rules: {game}", "Règles : {game}"),
    "undo_refuse": ("Refuse", "Refuser"),
    "undo_done": (
        "Undone: your last turn is back in your hands.",
        "Annulé : vous rejouez votre dernier tour.",
    ),
    "undo_asked": (
        "Undo asked in the thread; waiting for {missing}.",
        "Annulation demandée dans le fil ; en attente de {missing}.",
    ),
    "undo_refused": (
        "↩️ {player} refused to take back the last turn: the game goes on.",
        "↩️ {player} refuse de reprendre le dernier tour : la partie continue.",
    ),
    "undo_agreed": (
        "↩️ Undone: {players} agreed, the last turn is taken back.",
        "↩️ Annulé : {players} sont d'accord, le dernier tour est repris.",
    ),
    "resign_done": (
        "You resigned from game #{game_id}.",
        "Vous avez abandonné la partie n°{game_id}.",
    ),
    # -- The Castle ---------------------------------------------------------------------------
    "castle_game": ("The Castle (2 players)", "Le Château (2 joueurs)"),
    "hunters_game": (
        "Hunters & Gatherers (2-5 players)",
        "Chasseurs et Cueilleurs (2 à 5 joueurs)",
    ),
    "hunters_reconstructed": ("reconstructed deck", "pioche reconstituée"),
    "castle_reconstructed": (
        "reconstructed castle and tiles",
        "château et tuiles reconstitués",
    ),
    "castle_walls_now": (
        "You may first play a wall tile with **Wall tiles**.",
        "Vous pouvez d'abord jouer une tuile Mur avec **Tuiles Mur**.",
    ),
    "castle_wall_button": ("Wall tiles ({count})", "Tuiles Mur ({count})"),
    "castle_subject_or_wall": (
        "Your tile is down: put a subject on it, play a wall tile, or end your turn.",
        "Votre tuile est posée : posez-y un sujet, jouez une tuile Mur, ou finissez votre tour.",
    ),
    "castle_wall_step": (
        "Before your turn is scored you may play a wall tile, or end your turn.",
        "Avant le décompte de votre tour, vous pouvez jouer une tuile Mur, ou finir votre tour.",
    ),
    "castle_choose_subject": ("Choose my subject", "Choisir mon sujet"),
    "castle_end_turn": ("End my turn", "Finir mon tour"),
    "castle_step_hint": (
        "You can still play a wall tile after this: with no subject, Confirm keeps your turn "
        "open for it.",
        "Vous pourrez encore jouer une tuile Mur : sans sujet, Confirmer laisse votre tour "
        "ouvert pour cela.",
    ),
    "castle_wall_intro": (
        "The wall tiles you can play now. Tiles 2 and 3 name a lettered tower or house where "
        "you have the majority: it scores double for you when it is completed.",
        "Les tuiles Mur jouables maintenant. Les tuiles 2 et 3 visent une tour ou une maison "
        "lettrée où vous êtes majoritaire : elle vous rapporte double une fois achevée.",
    ),
    "castle_wall_menu": ("Play a wall tile…", "Jouer une tuile Mur…"),
    "castle_wall_1": ("1 · Two turns in a row", "1 · Deux tours de suite"),
    "castle_wall_2": (
        "2 · Tower {label} scores double for you",
        "2 · La tour {label} vous rapporte double",
    ),
    "castle_wall_3": (
        "3 · House {label} scores double for you",
        "3 · La maison {label} vous rapporte double",
    ),
    "castle_wall_chosen": ("Chosen: {what}.", "Choix : {what}."),
    "castle_no_wall": (
        "You have no wall tile to play now.",
        "Vous n'avez aucune tuile Mur à jouer maintenant.",
    ),
    # -- refusals -----------------------------------------------------------------------------
    "not_for_you": (
        "This is {player}'s turn; only they can use these buttons.",
        "C'est au tour de {player} ; seul ce joueur peut utiliser ces boutons.",
    ),
    "stale": (
        "This prompt is out of date: the game has moved on. Use the latest message.",
        "Ce message n'est plus à jour : la partie a avancé. Utilisez le dernier message.",
    ),
    "game_closed": (
        "Game #{game_id} is over. Start another with `/carcassonne new`.",
        "La partie n°{game_id} est terminée. Lancez-en une autre avec `/carcassonne new`.",
    ),
    "place_rotation": (
        "Rotation {rotation} does not fit on square {cell}: use {legal}.",
        "La rotation {rotation} ne convient pas en case {cell} : utilisez {legal}.",
    ),
    "json_not_text": ("it is not text (UTF-8)", "ce n'est pas du texte (UTF-8)"),
    "json_invalid": (
        "invalid JSON at line {line}, column {column}",
        "JSON invalide ligne {line}, colonne {column}",
    ),
    "json_huge_number": (
        "it holds a number with thousands of digits, which no record field needs",
        "il contient un nombre de milliers de chiffres, dont aucun champ n'a besoin",
    ),
    "json_not_object": ("it is not a JSON object", "ce n'est pas un objet JSON"),
    "carcassonne_only": (
        "Expansions and rule options are for Carcassonne only: leave them out for {game}.",
        "Les extensions et options de règles sont pour Carcassonne seulement : ne les "
        "donnez pas pour {game}.",
    ),
    "no_game_here": (
        "No game is being played here. Give its number (see `/carcassonne games`).",
        "Aucune partie en cours ici. Donnez son numéro (voir `/carcassonne games`).",
    ),
    "several_games": (
        "Several games are running here ({ids}): give the game number.",
        "Plusieurs parties sont en cours ici ({ids}) : donnez le numéro de la partie.",
    ),
    "bad_cell": (
        "“{cell}” is not a square. Use a letter from the board (A, B…) or x,y such as 1,-2.",
        "« {cell} » n'est pas une case. Utilisez une lettre du plateau (A, B…) ou x,y comme 1,-2.",
    ),
    "no_such_letter": (
        "There is no square {cell} this turn: the lettered squares go from {first} to {last}.",
        "Il n'y a pas de case {cell} à ce tour : les cases lettrées vont de {first} à {last}.",
    ),
    "cell_taken": (
        "Square {cell} is taken: a tile already lies there. Pick a lettered square.",
        "La case {cell} est prise : une tuile s'y trouve déjà. Choisissez une case lettrée.",
    ),
    "cell_alone": (
        "Square {cell} touches no tile: a tile goes next to one already down.",
        "La case {cell} ne touche aucune tuile : une tuile se pose à côté d'une autre.",
    ),
    "cell_no_fit": (
        "Your tile does not fit at {cell} whichever way it is turned: its edges don't match the "
        "neighbours. Pick a lettered square.",
        "Votre tuile ne va pas en {cell}, quelle que soit son orientation : ses bords ne "
        "correspondent pas aux voisines. Choisissez une case lettrée.",
    ),
    "bad_rotation": (
        "Rotation must be 0, 90, 180 or 270 (legal here: {legal}).",
        "La rotation doit être 0, 90, 180 ou 270 (possibles ici : {legal}).",
    ),
    "bad_figure": (
        "Figure {figure!r} is not possible here. Possible: {legal}.",
        "Le pion {figure!r} n'est pas possible ici. Possibles : {legal}.",
    ),
    "hand_not_player": (
        "You are not playing in game #{game_id}, so you hold no tiles.",
        "Vous ne jouez pas dans la partie n°{game_id} : vous n'avez pas de tuiles.",
    ),
    "other_guild": (
        "Game #{game_id} belongs to another server: use it there.",
        "La partie n°{game_id} appartient à un autre serveur : utilisez-la là-bas.",
    ),
    "not_started": (
        "Game #{game_id} has not started yet: its creator presses **Start** in the lobby.",
        "La partie n°{game_id} n'a pas encore commencé : son créateur appuie sur **Commencer**.",
    ),
    "new_in_thread": (
        "Open a new game from a text channel, not from inside a thread.",
        "Ouvrez une nouvelle partie depuis un salon textuel, pas depuis un fil.",
    ),
    "place_hand": (
        "This game uses the tactical hand: press **My tiles** on the turn message to choose "
        "your tile.",
        "Cette partie se joue avec la main tactique : appuyez sur **Mes tuiles** dans le "
        "message du tour pour choisir votre tuile.",
    ),
    "no_rotation": (
        "Give a rotation: {legal} fit on square {cell}.",
        "Donnez une rotation : {legal} conviennent en case {cell}.",
    ),
    "empty_file": (
        "That file is empty. Attach a record exported with `/carcassonne export`.",
        "Ce fichier est vide. Joignez un enregistrement exporté avec `/carcassonne export`.",
    ),
    "not_tile_phase": (
        "The game is not waiting for a tile now; use the buttons of the latest message.",
        "La partie n'attend pas de tuile maintenant ; utilisez les boutons du dernier message.",
    ),
    "bad_json": (
        "That file is not a game record: {reason}. Export one with `/carcassonne export`.",
        "Ce fichier n'est pas un enregistrement de partie : {reason}. Exportez-en un avec "
        "`/carcassonne export`.",
    ),
    "too_big": (
        "That file is too large for a game record (over 1 MB).",
        "Ce fichier est trop gros pour un enregistrement de partie (plus de 1 Mo).",
    ),
    "guild_only": (
        "Use this command in a server channel.",
        "Utilisez cette commande dans un salon de serveur.",
    ),
    "manage_only": (
        "Only members who can manage the server can change its settings.",
        "Seuls les membres qui peuvent gérer le serveur changent ses réglages.",
    ),
    "unexpected": (
        "Something went wrong on our side; nothing was played. Please try again.",
        "Un problème est survenu de notre côté ; rien n'a été joué. Réessayez.",
    ),
    # -- commands -----------------------------------------------------------------------------
    "exported": ("Record of game #{game_id}.", "Enregistrement de la partie n°{game_id}."),
    "imported": (
        "Imported as game #{game_id} ({count} moves). You hold every seat: continue it here.",
        "Importée comme partie n°{game_id} ({count} coups). Vous tenez toutes les places : "
        "continuez-la ici.",
    ),
    "games_none": ("No game to show.", "Aucune partie à montrer."),
    "games_line": (
        "#{game_id} · {status} · {players}{where}",
        "n°{game_id} · {status} · {players}{where}",
    ),
    "status_lobby": ("open lobby", "inscriptions ouvertes"),
    "status_active": ("in play", "en cours"),
    "status_finished": ("finished", "terminée"),
    "status_abandoned": ("abandoned", "abandonnée"),
    "settings_saved": ("Server defaults saved: {summary}", "Réglages du serveur : {summary}"),
    "settings_show": ("Server defaults: {summary}", "Réglages du serveur : {summary}"),
    "abandoned": ("Game #{game_id} abandoned.", "Partie n°{game_id} abandonnée."),
    # -- play-by-post ---------------------------------------------------------------------------
    "timing_none": ("no time limit", "sans limite de temps"),
    "timing": (
        "{hours} per turn; when time runs out, {policy}",
        "{hours} par tour ; temps écoulé : {policy}",
    ),
    "policy_autoplay": ("the bot places the tile (no figure)", "le bot pose la tuile (sans pion)"),
    "policy_skip": ("the turn is skipped", "le tour passe"),
    "policy_forfeit": ("the player leaves the game", "le joueur quitte la partie"),
    "lobby_timing": ("Time", "Temps"),
    "clock_running": ("⏳ This turn ends {rel}.", "⏳ Ce tour se termine {rel}."),
    "clock_paused": (
        "⏸️ {player} is away until {until}: the clock is paused with {left} left.",
        "⏸️ {player} est absent jusqu'au {until} : l'horloge est en pause, il reste {left}.",
    ),
    "clock_paused_plain": (
        "⏸️ The clock is paused with {left} left.",
        "⏸️ L'horloge est en pause, il reste {left}.",
    ),
    "clock_short_running": ("ends {rel}", "fin {rel}"),
    "clock_short_away": ("⏸️ away until {until}", "⏸️ absent jusqu'au {until}"),
    "clock_short_paused": ("⏸️ paused, {left} left", "⏸️ en pause, reste {left}"),
    "away_line": ("🏖️ {player} is away until {until}.", "🏖️ {player} est absent jusqu'au {until}."),
    "reminder": (
        "⏰ {player}, reminder: your turn ends {rel}.",
        "⏰ {player}, rappel : votre tour se termine {rel}.",
    ),
    "reminder_dm": (
        "⏰ Your turn in Carcassonne game #{game_id} ends {rel}: {link}",
        "⏰ Votre tour dans la partie de Carcassonne n°{game_id} se termine {rel} : {link}",
    ),
    "timeout_autoplay": (
        "⏰ {player}'s time ran out: the bot placed their tile, without a figure.",
        "⏰ Le temps de {player} est écoulé : le bot a posé sa tuile, sans pion.",
    ),
    "timeout_skip": ("⏰ {player}'s time ran out.", "⏰ Le temps de {player} est écoulé."),
    "timeout_forfeit": (
        "⏰ {player}'s time ran out: they leave the game.",
        "⏰ Le temps de {player} est écoulé : il quitte la partie.",
    ),
    "resumed": (
        "▶️ {player} is back: the clock runs again and this turn ends {rel}.",
        "▶️ {player} est de retour : l'horloge repart et ce tour se termine {rel}.",
    ),
    "away_notice": (
        "🏖️ {player} is away until {until}: the clock of this turn is paused.",
        "🏖️ {player} est absent jusqu'au {until} : l'horloge de ce tour est en pause.",
    ),
    "away_set": (
        "You are away until {until}. Your turn clocks are paused and run again when you come "
        "back; `/carcassonne away days: 0` ends your absence early.",
        "Vous êtes absent jusqu'au {until}. Vos horloges de tour sont en pause et repartent à "
        "votre retour ; `/carcassonne absent jours: 0` met fin à votre absence plus tôt.",
    ),
    "away_back": (
        "Welcome back! Your turn clocks run again.",
        "Bon retour ! Vos horloges de tour repartent.",
    ),
    "away_not": (
        "You were not away. To pause your clocks, give a number of days (1 to 60).",
        "Vous n'étiez pas absent. Pour mettre vos horloges en pause, donnez un nombre de jours "
        "(1 à 60).",
    ),
    "mygames_title": ("Your turn in {count} game(s):", "À vous de jouer dans {count} partie(s) :"),
    "mygames_line": (
        "#{game_id} · turn {turn} · {where} · {clock}",
        "n°{game_id} · tour {turn} · {where} · {clock}",
    ),
    "mygames_none": (
        "It is your turn in no game on this server.",
        "Ce n'est votre tour dans aucune partie de ce serveur.",
    ),
    "mygames_away": (
        "You are away until {until}: your clocks are paused.",
        "Vous êtes absent jusqu'au {until} : vos horloges sont en pause.",
    ),
    "turn_link": ("turn message", "message du tour"),
    "digest_title": (
        "📋 **Whose turn is it?** {count} game(s) in play:",
        "📋 **À qui de jouer ?** {count} partie(s) en cours :",
    ),
    "digest_line": (
        "#{game_id} · {player} · {where} · {clock}",
        "n°{game_id} · {player} · {where} · {clock}",
    ),
    "digest_more": ("… and {count} more.", "… et {count} de plus."),
    "dm_welcome": (
        "DM reminders are on: one reminder per turn, before your time runs out. "
        "`/carcassonne reminders dm: False` turns them off.",
        "Rappels par message privé activés : un rappel par tour, avant la fin de votre temps. "
        "`/carcassonne rappels mp: False` les désactive.",
    ),
    "dm_on": (
        "DM reminders are on: I sent you a DM to check that it works.",
        "Rappels par message privé activés : je vous ai envoyé un message pour vérifier.",
    ),
    "dm_off": ("DM reminders are off.", "Rappels par message privé désactivés."),
    "dm_show_on": (
        "DM reminders are on. `dm: False` turns them off.",
        "Rappels par message privé activés. `mp: False` les désactive.",
    ),
    "dm_show_off": (
        "DM reminders are off. `dm: True` turns them on.",
        "Rappels par message privé désactivés. `mp: True` les active.",
    ),
    "dm_refused": (
        "I cannot send you direct messages, so DM reminders stay off. Allow direct messages "
        "from this server's members (privacy settings), then try again.",
        "Je ne peux pas vous envoyer de messages privés : les rappels restent désactivés. "
        "Autorisez les messages privés des membres de ce serveur (confidentialité), puis "
        "réessayez.",
    ),
    "settings_timing": ("⏳ {timing}", "⏳ {timing}"),
    "settings_digest": ("📋 daily digest in {channel}", "📋 résumé quotidien dans {channel}"),
    "digest_where": (
        "Give a channel for the digest, or run the command in that channel.",
        "Donnez un salon pour le résumé, ou lancez la commande dans ce salon.",
    ),
}

RULES: dict[str, tuple[str, str]] = {
    "carcassonne": (
        "**Carcassonne.** On your turn: place the drawn tile so every edge matches its "
        "neighbours, then you may put one follower on a feature of that tile (road: thief, "
        "city: knight, cloister: monk, field: farmer) if that feature holds no figure yet. "
        "Completed features score at once and free their figures: road 1/tile, city 2/tile "
        "and 2/pennant (a 2-tile city scores 2 under the classic small-city rule), cloister 9. "
        "At the end incomplete features score 1 per tile/pennant and farmers 3 per completed "
        "city touching their field. Most points wins.",
        "**Carcassonne.** À votre tour : posez la tuile tirée en accordant chaque côté à ses "
        "voisines, puis vous pouvez poser un partisan sur un élément de cette tuile (route : "
        "voleur, ville : chevalier, abbaye : moine, pré : paysan) si cet élément n'a encore "
        "aucun pion. Un élément achevé marque tout de suite et libère ses pions : route 1/tuile, "
        "ville 2/tuile et 2/blason (une ville de 2 tuiles vaut 2 avec la règle classique), "
        "abbaye 9. À la fin, les éléments inachevés valent 1 par tuile/blason, les paysans 3 par "
        "ville achevée touchant leur pré. Le plus de points gagne.",
    ),
    "abbey_mayor": (
        "**Abbey & Mayor.** Once per game play your abbey instead of a tile into a hole "
        "surrounded on four sides. The mayor (cities) counts one per pennant; the wagon (road, "
        "city, cloister) moves on after its feature scores; the barn sits on a field corner "
        "where four tiles meet and scores farmers.",
        "**Abbaye & Maire.** Une fois par partie, posez votre abbaye au lieu d'une tuile dans un "
        "trou entouré sur quatre côtés. Le maire (villes) compte un par blason ; le chariot "
        "(route, ville, abbaye) repart après le décompte de son élément ; la grange se pose à un "
        "coin de pré où quatre tuiles se touchent et fait marquer les paysans.",
    ),
    "how": (
        "**How to play here:** in the menu under the picture, pick a lettered square and a "
        "rotation; your private step then shows the tile with numbered spots: tap one, or **No "
        "figure**, and the move is played. `/carcassonne place` does it in one line, e.g. "
        "`cell: B rotation: 90 figure: 4`. `/carcassonne help` explains it with a picture.",
        "**Jouer ici :** dans le menu sous l'image, choisissez une case lettrée et une "
        "orientation ; votre étape privée montre alors la tuile avec des endroits numérotés : "
        "touchez-en un, ou **Aucun pion**, et le coup est joué. `/carcassonne poser` fait tout "
        "en une ligne, par ex. `case: B rotation: 90 pion: 4`. `/carcassonne aide` l'explique "
        "avec une image.",
    ),
    "castle": (
        "**The Castle** (2 players). Place your tile inside the walls, along a start square or a "
        "placed tile; only paths must continue across edges. You may then put a subject on one "
        "of its features that holds none: messenger (path), knight (tower), burgher (house), "
        "merchant (courtyard, stays to the end). A completed feature scores at once for the "
        "majority, and a tie scores nobody: path 1/tile (2 with a well), tower 2/tile, house "
        "1/tile; start squares count as tiles. Your first completed house with your majority "
        "gets your palace; a larger one later takes it. A marker that stops exactly on a "
        "corner tower takes its wall tile: 1 two turns in a row, 2/3 a tower/house of yours "
        "scores double, 4-6 an unfinished path/tower/house scores, 7 markets score 4, 8 palace "
        "+2 tiles, 9 +5 points. Play 1-3 with **Wall tiles** from your next turn on; 4-9 count "
        "by themselves at the end. End: the largest palace scores the largest empty area, "
        "courtyards 3 per market to the merchant majority.\n*The castle outline, its start "
        "squares and its 60 tiles are a documented reconstruction, not the original: the "
        "original layout exists only as pictures we could not reach.*",
        "**Le Château** (2 joueurs). Posez votre tuile dans l'enceinte, contre une case Départ "
        "ou une tuile posée ; seuls les chemins doivent se prolonger. Vous pouvez ensuite poser "
        "un sujet sur un de ses décors encore libre : messager (chemin), chevalier (tour), "
        "bourgeois (maison), marchand (cour, reste jusqu'à la fin). Un décor achevé rapporte "
        "tout de suite au joueur majoritaire, une égalité ne rapporte rien : chemin 1/tuile (2 "
        "avec un puits), tour 2/tuile, maison 1/tuile ; les cases Départ comptent comme des "
        "tuiles. Votre première maison achevée où vous êtes majoritaire reçoit votre palais ; "
        "une plus grande ensuite le récupère. Un marqueur qui s'arrête pile sur une tour de "
        "coin prend sa tuile Mur : 1 deux tours de suite, 2/3 une de vos tours/maisons compte "
        "double, 4-6 un chemin/une tour/une maison inachevé compte, 7 marchés à 4, 8 palais +2 "
        "tuiles, 9 +5 points. Jouez 1-3 avec **Tuiles Mur** dès votre tour suivant ; 4-9 "
        "comptent seules à la fin. Fin : le plus grand palais marque la plus grande zone vide, "
        "les cours 3 par marché au marchand majoritaire.\n*Le tracé du château, ses cases "
        "Départ et ses 60 tuiles sont une reconstitution documentée, pas l'original : le plan "
        "original n'existe qu'en images que nous n'avons pas pu consulter.*",
    ),
    "hunters": (
        "**Hunters & Gatherers.** Tiles show forests, meadows and rivers; touching edges must "
        "match. Place your tile, then you may put a man on one of its features if that feature "
        "holds no man yet: hunter on a meadow, gatherer on a forest, fisher on a river; or one "
        "of your 2 huts on a river or lake whose river system has no hut. A completed river pays "
        "its fisher majority 1 per tile + 1 per fish in the lakes at its ends; a completed "
        "forest pays its gatherer majority 2 per tile (+2 per mushroom clearing). Men come back "
        "at the end of the turn. Closing a forest with gold nuggets gives you a bonus tile to "
        "play at once, in the same turn. After the last land tile: huts score 1 per fish in "
        "their river system, hunters 2 per deer, mammoth and aurochs in their meadow (each "
        "sabre-tooth tiger eats a deer; the fire chases tigers away; the shrine's hunter scores "
        "alone).\n*The deck is reconstructed: the exact 2002 tile list is not public, so "
        "`engine/data/hunters.toml` rebuilds it from the later edition and the rulebook's "
        "pictures. If you own the box and a tile differs, correct that file.*",
        "**Chasseurs et Cueilleurs.** Les tuiles montrent forêts, prés et rivières ; les bords "
        "qui se touchent doivent correspondre. Posez votre tuile, puis vous pouvez poser un homme "
        "sur un de ses éléments qui n'en a pas encore : chasseur sur un pré, cueilleur sur une "
        "forêt, pêcheur sur une rivière ; ou une de vos 2 huttes sur une rivière ou un lac dont "
        "le réseau n'a pas de hutte. Une rivière achevée rapporte à ses pêcheurs majoritaires 1 "
        "par tuile + 1 par poisson des lacs à ses bouts ; une forêt achevée rapporte à ses "
        "cueilleurs majoritaires 2 par tuile (+2 par clairière à champignons). Les hommes "
        "reviennent à la fin du tour. Achever une forêt avec des pépites d'or donne une tuile "
        "bonus à jouer tout de suite, dans le même tour. Après la dernière tuile de paysage : "
        "les huttes marquent 1 par poisson de leur réseau, les chasseurs 2 par cerf, mammouth et "
        "auroch de leur pré (chaque tigre à dents de sabre mange un cerf ; le feu chasse les "
        "tigres ; le chasseur du sanctuaire marque seul).\n*La pioche est reconstituée : la "
        "liste exacte des tuiles de 2002 n'est pas publique, `engine/data/hunters.toml` la "
        "rebâtit d'après l'édition suivante et les images de la règle. Si vous avez la boîte et "
        "qu'une tuile diffère, corrigez ce fichier.*",
    ),
    "hunters_pointer": (
        "**Hunters & Gatherers** (2-5 players): open one with `/carcassonne new game: Hunters & "
        "Gatherers`; `/carcassonne rules` in its thread gives its rules.",
        "**Chasseurs et Cueilleurs** (2 à 5 joueurs) : ouvrez-en une avec `/carcassonne "
        "nouvelle partie: Chasseurs et Cueilleurs` ; `/carcassonne regles` dans son fil en "
        "donne les règles.",
    ),
    "castle_pointer": (
        "**The Castle** (2 players): open one with `/carcassonne new game: The Castle`; "
        "`/carcassonne rules` in its thread gives its rules.",
        "**Le Château** (2 joueurs) : ouvrez-en un avec `/carcassonne nouvelle partie: Le "
        "Château` ; `/carcassonne regles` dans son fil en donne les règles.",
    ),
}


def tr(key: str, locale: str | None, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (English when French is missing)."""
    en, fr = TEXTS[key]
    return (fr if language(locale) == "fr" else en).format(**params)


def rules_text(key: str, locale: str | None) -> str:
    en, fr = RULES[key]
    return fr if language(locale) == "fr" else en


def player_locale(interaction: discord.Interaction, fallback: str | None) -> str:
    """The clicking player's language: their Discord client's when we speak it, else
    ``fallback`` (the game's or the server's)."""
    # A French client always gets French. English is what most clients send without the
    # user ever choosing, so there the game's (or server's) language wins.
    client = language(str(interaction.locale.value) if interaction.locale else "")
    if client == "fr" or not fallback:
        return client
    return language(fallback)


#: The game families by their names on the box, as lobbies, threads and lists name them.
GAME_TITLES = {
    "carcassonne": ("Carcassonne", "Carcassonne"),
    "hunters": ("Hunters & Gatherers", "Chasseurs et Cueilleurs"),
    "castle": ("The Castle", "Le Château"),
}
EXPANSION_TITLES = {"abbey_mayor": ("Abbey & Mayor", "Abbaye & Maire")}


def game_title(row: Any, locale: str | None) -> str:
    """The game family of ``row`` (a stored game), with its expansions: "Carcassonne + Abbey &
    Mayor", "Hunters & Gatherers"."""
    fr = language(locale) == "fr"
    en, french = GAME_TITLES.get(row.kind, (row.kind, row.kind))
    parts = [french if fr else en]
    for name in row.expansions:
        en, french = EXPANSION_TITLES.get(name, (name, name))
        parts.append(french if fr else en)
    return " + ".join(parts)
