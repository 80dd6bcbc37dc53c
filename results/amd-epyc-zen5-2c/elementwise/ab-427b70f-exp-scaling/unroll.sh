export TGEMM_ARCH=avx2
bash /tmp/alt.sh /tmp/res_sg 3 activate:sigmoid,activate:silu d M S1 S4
bash /tmp/alt.sh /tmp/res_th 3 activate:gelu_tanh,bias_act:gelu_tanh d M T2
bash /tmp/alt.sh /tmp/res_er 3 activate:gelu_erf d M E2 E4
