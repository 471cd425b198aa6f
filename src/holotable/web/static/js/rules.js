// Short rules summaries shown beside every table, written for this client in our own words.
// Each entry: a one-line goal, then a few short paragraphs (turn, round end, winner, tips).

export const RULES = {
  "captain-black": {
    title: "Captain Black",
    goal: "Collect the most filled treasure chests over as many rounds as there are players.",
    sections: [
      ["Your move", "When you hold the bag, choose how many coins to grab at once, blind. If every coin is gold, it all goes into your box. If even one is black, that black coin goes to the island, the others go back into the bag, and you gain nothing this move (gold already in your box stays)."],
      ["Round end", "The round ends the moment the island is full of black coins. Whoever has the least gold takes two parrot cards and adds the coins they show. Then everyone gets treasure-chest cards by rank from the bottom: the lowest total gets 1 card, the next 2, then 3, at most 4; equal totals get equal cards."],
      ["Chest cards", "Most chest cards are filled, a few are empty. You see only your own until the end."],
      ["Winner", "Most filled chests wins; then most chest cards; still tied, the win is shared."],
      ["Tip", "Small grabs are safe but slow. The odds of an all-gold grab are shown next to the draw button."],
    ],
  },
  buccaneers: {
    title: "Black Hole Buccaneers",
    goal: "Over three rounds, collect the most valuable space junk without getting heavier than the black hole allows.",
    sections: [
      ["Each turn", "Everyone picks one card from their hand at the same time, in secret. The picks are then revealed together and laid out in front of their owners (toys face down). Card effects happen, then the hands are passed in the direction the arrow shows. With one card left, it goes face down into the black hole instead."],
      ["Value and weight", "Each card shows value / weight along its top edge. Turned cards show the numbers of their new top edge. Time-machine parts of one group turn together; shapeshifters stack, and all weigh what the top one shows."],
      ["Scoring (steps A-H)", "A Surprise Egg, B Alien Wading Pool (optional), C toys are turned up and the heaviest toy pile gets a -6 weight card, D One Ring (optional), E weights recorded (Carpet: +10 value if strictly lightest, Exoskeleton: -10 weight if strictly heaviest), F one black-hole card is revealed and sets everyone's threshold, G anyone heavier than their threshold is pulled in and scores nothing, H the rest score by value."],
      ["Threshold", "The black hole's number, plus the weight of the card revealed in step F, plus any threshold cards placed next to it (the XXL Paperweight's owner adds that weight twice)."],
      ["Winner", "Most points after three rounds; ties go to the best spaceship in play."],
    ],
  },
  council: {
    title: "Black Hole Council",
    goal: "Move furthest along the influence track by steering which planets go where, guided by your secret agenda.",
    sections: [
      ["Negotiation", "The leader arranges five planets above the outcomes and may give or take small bribes. Everyone else votes Pass or Fail together; a majority of Pass approves."],
      ["Approved", "Each player advances if their secret points pay for the next space, may add coins, or takes a coin instead. An intrigue card may be played once per game."],
      ["Failed", "The bribe grows and the next proposal starts; a third failure ends the round with no advance."],
      ["Deduction", "Three times, guess a colour of a neighbour's agenda: a right guess pays you, a wrong one pays them."],
      ["Winner", "Furthest on the influence track after the pay-out."],
    ],
  },
  kyrum: {
    title: "Black Hole: Kyrum",
    goal: "Solo: meet this game's objectives before the fourth journey through the planet deck ends.",
    sections: [
      ["An area", "Four planets are laid out with a distance die under each; the die is the fuel cost to go there. Explore a planet if your suit is at least its danger, or leave the area for free."],
      ["Exploring", "Two dice decide which story script you read; scripts change your gauges and give discoveries."],
      ["Crafting and studying", "Spend element cubes for fuel, repairs or die changes; pay elements to study discoveries for knowledge."],
      ["Winner", "Validate every objective in time; the fourth journey's end loses the game."],
    ],
  },
  "space-pirates": {
    title: "Space Pirates",
    goal: "Own a pirate base and hold enough money (20 MC in the standard game).",
    sections: [
      ["A turn", "Play an energy card: its symbols happen first (flick transports, storms, wind), then your ship flies along as many rulers as the card's value."],
      ["Cargo", "Fly over a face-down transport to capture it: cargo goes into your hold, an asteroid hurts, the police arrest you."],
      ["Bases", "Dock at a base to buy it, sell cargo at its market prices, or recharge energy."],
      ["Winner", "The first player who owns a base and has the money wins at once."],
    ],
  },
};

/** The summary for a game, or a plain fallback naming it. */
export function rulesFor(game, title) {
  return RULES[game] || { title: title || game, goal: "", sections: [] };
}
