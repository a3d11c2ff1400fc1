export default { display: {}, inline: {} };
